-- attack: read memory use, which depends on the games played before on the same VM
-- expect: runtime
-- message: `collectgarbage` is not available
return collectgarbage("count")
