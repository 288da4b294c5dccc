-- attack: debug.getinfo / debug.sethook
-- expect: runtime
-- message: attempt to index nil
return debug.getinfo(1)
