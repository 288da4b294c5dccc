-- attack: os reached through _G
-- expect: runtime
-- message: attempt to index nil
return _G["o".."s"].exit(1)
