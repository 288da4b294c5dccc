-- attack: raise a table as the error, to print its address
-- expect: runtime
-- message: table
error({})
