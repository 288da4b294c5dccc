-- attack: rawset into _G
-- expect: runtime
-- message: readonly
rawset(_G, "counter", 1)
