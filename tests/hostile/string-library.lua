-- attack: change a library for the next card
-- expect: runtime
-- message: readonly
string.upper = function() return "pwned" end
