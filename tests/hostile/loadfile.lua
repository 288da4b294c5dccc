-- attack: loadfile
-- expect: runtime
-- message: attempt to call a nil value
return loadfile("/etc/passwd")
