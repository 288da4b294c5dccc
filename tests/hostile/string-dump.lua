-- attack: string.dump to make bytecode
-- expect: runtime
-- message: attempt to call a nil value
return string.dump(function() end)
