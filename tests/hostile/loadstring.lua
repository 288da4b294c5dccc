-- attack: loadstring
-- expect: runtime
-- message: `loadstring` is not available
return loadstring("return 1")()
