/** Turns file-system errors into messages a model can act on. */
export function errorCode(error: unknown): string | undefined {
	return typeof error === "object" && error !== null && "code" in error
		? String((error as { code: unknown }).code)
		: undefined;
}

export function describeFsError(error: unknown, path: string, verb: string): string {
	switch (errorCode(error)) {
		case "ENOENT":
			return `File not found: ${path}`;
		case "EISDIR":
			return `Cannot ${verb} ${path}: it is a directory`;
		case "ENOTDIR":
			return `Cannot ${verb} ${path}: a parent of this path is not a directory`;
		case "EACCES":
		case "EPERM":
			return `Cannot ${verb} ${path}: permission denied`;
		case "ELOOP":
			return `Cannot ${verb} ${path}: too many levels of symbolic links (symlink loop)`;
		case "EROFS":
			return `Cannot ${verb} ${path}: read-only file system`;
		case "ENOTREGULAR":
			return `Cannot ${verb} ${path}: it is a ${(error as { kind?: string }).kind ?? "special file"}, not a regular file; refusing to ${verb} it`;
		case "EDANGLING":
		case "EFBIG":
			return `Cannot ${verb} ${path}: ${(error as Error).message}`;
		case "ENOSPC":
			return `Cannot ${verb} ${path}: no space left on device`;
		default:
			return `Cannot ${verb} ${path}: ${error instanceof Error ? error.message : String(error)}`;
	}
}
