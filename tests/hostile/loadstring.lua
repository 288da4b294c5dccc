-- attack: loadstring
-- expect: runtime
-- message: attempt to call a nil value
return loadstring("return 1")()
