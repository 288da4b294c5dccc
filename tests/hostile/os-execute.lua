-- attack: os.execute: the os library is absent
-- expect: runtime
-- message: attempt to index nil
return os.execute("rm -rf /")
