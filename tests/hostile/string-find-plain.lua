-- attack: a plain string.find whose byte-by-byte comparison runs for minutes inside one C call
-- expect: budget
-- message: instruction budget exhausted
local haystack = string.rep("a", 1000000)
return string.find(haystack, string.rep("a", 100000) .. "b", 1, true)
