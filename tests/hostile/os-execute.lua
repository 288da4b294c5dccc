-- attack: os.execute: the os library is absent
-- expect: runtime
-- message: `os` is not available
return os.execute("rm -rf /")
