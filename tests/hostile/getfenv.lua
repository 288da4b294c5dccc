-- attack: getfenv to reach another environment
-- expect: runtime
-- message: `getfenv` is not available
return getfenv(2)
