-- attack: collectgarbage beyond count
-- expect: runtime
-- message: `collectgarbage` is not available
return collectgarbage("collect")
