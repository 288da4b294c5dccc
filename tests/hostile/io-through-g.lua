-- attack: io reached through _G
-- expect: runtime
-- message: `io` is not available
return _G.io.open("/etc/passwd")
