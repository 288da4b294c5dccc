-- attack: rawset into a library
-- expect: runtime
-- message: readonly
rawset(string, "upper", print)
