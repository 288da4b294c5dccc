-- attack: setfenv to replace an environment
-- expect: runtime
-- message: `setfenv` is not available
return setfenv(1, {})
