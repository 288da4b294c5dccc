-- attack: load a string of code
-- expect: runtime
-- message: `load` is not available
return load("return 1")()
