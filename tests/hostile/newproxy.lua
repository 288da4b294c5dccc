-- attack: newproxy userdata with a metatable
-- expect: runtime
-- message: `newproxy` is not available
return newproxy(true)
