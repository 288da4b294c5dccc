-- attack: newproxy userdata with a metatable
-- expect: runtime
-- message: attempt to call a nil value
return newproxy(true)
