-- Wild Bill has no scripted effect yet, so no case: his general Switch's
-- Effect is recorded nowhere, Twin Pistols is an Attack whose Damage the engine
-- inflicts, and Dead Man's Hand acts during the Switches step, which Automatic
-- Skills cannot reach yet (they run only at the beginning of an Activation).
return {}
