-- attack: io.open: the io library is absent
-- expect: runtime
-- message: `io` is not available
return io.open("/etc/passwd")
