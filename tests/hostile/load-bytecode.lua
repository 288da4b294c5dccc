-- attack: bytecode through load
-- expect: runtime
-- message: `load` is not available
return load("\27Lua\84\0\25\147\13\10\26\10")()
