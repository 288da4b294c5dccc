-- attack: an endless loop
-- expect: budget
-- message: 
while true do end
