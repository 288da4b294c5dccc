-- attack: io reached through _G
-- expect: runtime
-- message: attempt to index nil
return _G.io.open("/etc/passwd")
