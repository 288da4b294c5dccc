-- attack: io reached through rawget(_G)
-- expect: runtime
-- message: attempt to index nil
return rawget(_G, "io").open("/etc/passwd")
