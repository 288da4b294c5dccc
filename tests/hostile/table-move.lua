-- attack: table.move over two billion indices inside one C call
-- expect: budget
-- message: instruction budget exhausted
return table.move({}, 1, 2^31 - 3, 2, {})
