-- attack: os reached through _G
-- expect: runtime
-- message: `os` is not available
return _G["o".."s"].exit(1)
