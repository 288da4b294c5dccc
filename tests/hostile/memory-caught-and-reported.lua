-- attack: catch running out of memory, then report how far it got (what it sees must not change from run to run)
-- expect: memory
-- message: not enough memory
local game = ...
local keep, n, ok = {}, 0, true
while ok do
  ok = pcall(function()
    for j = 1, 50 do local g = { j, j + 1, j + 2 } end
    keep[#keep + 1] = string.rep("k", 20000 + n)
  end)
  n = n + 1
end
game:log("refused at round " .. n)
return n
