-- attack: load a string of code
-- expect: runtime
-- message: attempt to call a nil value
return load("return 1")()
