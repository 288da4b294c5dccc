-- attack: thousands of coroutines
-- expect: runtime
-- message: `coroutine` is not available
for i = 1, 1e6 do coroutine.create(function() end) end
