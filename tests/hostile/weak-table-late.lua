-- attack: make a table weak after setmetatable, by writing __mode into its metatable
-- expect: runtime
-- message: readonly
local mt = {}
local cache = setmetatable({}, mt)
mt.__mode = "v"
