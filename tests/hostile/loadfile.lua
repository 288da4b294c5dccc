-- attack: loadfile
-- expect: runtime
-- message: `loadfile` is not available
return loadfile("/etc/passwd")
