-- attack: yield across the host boundary
-- expect: runtime
-- message: attempt to index nil
return coroutine.yield(1)
