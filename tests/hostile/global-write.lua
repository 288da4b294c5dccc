-- attack: keep state in a global
-- expect: runtime
-- message: globals are read-only
counter = (counter or 0) + 1
return counter
