-- attack: yield across the host boundary
-- expect: runtime
-- message: `coroutine` is not available
return coroutine.yield(1)
