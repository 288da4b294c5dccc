-- attack: collectgarbage beyond count
-- expect: runtime
-- message: is not available to effects
return collectgarbage("collect")
