-- attack: dofile
-- expect: runtime
-- message: `dofile` is not available
return dofile("/etc/passwd")
