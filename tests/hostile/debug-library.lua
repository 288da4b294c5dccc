-- attack: debug.getinfo / debug.sethook
-- expect: runtime
-- message: `debug` is not available
return debug.getinfo(1)
