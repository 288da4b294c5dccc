-- attack: setfenv to replace an environment
-- expect: runtime
-- message: attempt to call a nil value
return setfenv(1, {})
