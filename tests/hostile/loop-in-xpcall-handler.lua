-- attack: an endless loop in an xpcall handler
-- expect: budget
-- message: 
return xpcall(function() error("x") end, function() while true do end end)
