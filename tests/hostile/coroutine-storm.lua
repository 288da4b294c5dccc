-- attack: thousands of coroutines
-- expect: runtime
-- message: attempt to index nil
for i = 1, 1e6 do coroutine.create(function() end) end
