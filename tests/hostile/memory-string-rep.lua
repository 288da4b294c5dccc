-- attack: one huge string
-- expect: memory
-- message: 
return #string.rep("x", 2^30)
