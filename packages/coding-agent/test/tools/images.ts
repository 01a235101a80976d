/** Test images generated in code (no binary fixtures). */
export const PNG_1x1 = Buffer.from(
	"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
	"base64",
);

export async function pngOfSize(width: number, height: number): Promise<Buffer> {
	const photon = await import("@silvia-odwyer/photon-node");
	const pixels = new Uint8Array(width * height * 4);
	for (let i = 0; i < pixels.length; i += 4) {
		pixels[i] = (i / 4) % 256;
		pixels[i + 3] = 255;
	}
	const img = new photon.PhotonImage(pixels, width, height);
	try {
		return Buffer.from(img.get_bytes());
	} finally {
		img.free();
	}
}
