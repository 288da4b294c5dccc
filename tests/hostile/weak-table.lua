-- attack: a weak table, whose contents depend on when memory is collected
-- expect: runtime
-- message: weak tables
local cache = setmetatable({}, { __mode = "k" })
cache[{}] = true
return next(cache) == nil
