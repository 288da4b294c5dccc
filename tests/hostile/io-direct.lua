-- attack: io.open: the io library is absent
-- expect: runtime
-- message: attempt to index nil
return io.open("/etc/passwd")
