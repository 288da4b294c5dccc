-- Hannibal has no scripted effect yet, so no case: Coordinated Assault and
-- Pointman add dice before a Roll, and Programmed Strategy lets an Ally perform
-- an Action, none of which the effect API can do yet.
return {}
