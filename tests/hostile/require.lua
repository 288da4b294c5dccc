-- attack: require a library
-- expect: runtime
-- message: `require` is not available
return require("os")
