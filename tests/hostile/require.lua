-- attack: require a library
-- expect: runtime
-- message: attempt to call a nil value
return require("os")
