-- attack: dofile
-- expect: runtime
-- message: attempt to call a nil value
return dofile("/etc/passwd")
