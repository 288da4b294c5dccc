-- attack: getfenv to reach another environment
-- expect: runtime
-- message: attempt to call a nil value
return getfenv(2)
