/**
 * Image support for read: type by magic bytes, dimensions from the header
 * (so small images never load the decoder), and downscaling through
 * photon (WebAssembly, loaded lazily on first need).
 */

export type ImageMime = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

export const MAX_IMAGE_DIMENSION = 2000;
/** Encoded size above which an image is re-encoded even if its dimensions are fine. */
export const MAX_IMAGE_BYTES = 4.5 * 1024 * 1024;

export function detectImageMime(data: Uint8Array): ImageMime | undefined {
	if (data.length >= 8 && data[0] === 0x89 && data[1] === 0x50 && data[2] === 0x4e && data[3] === 0x47) {
		return "image/png";
	}
	if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return "image/jpeg";
	const ascii = (from: number, to: number) => String.fromCharCode(...data.subarray(from, to));
	if (data.length >= 6 && (ascii(0, 6) === "GIF87a" || ascii(0, 6) === "GIF89a")) return "image/gif";
	if (data.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "image/webp";
	return undefined;
}

export interface ImageSize {
	width: number;
	height: number;
}

function jpegSize(d: Uint8Array): ImageSize | undefined {
	let i = 2;
	while (i + 9 < d.length) {
		if (d[i] !== 0xff) {
			i++;
			continue;
		}
		const marker = d[i + 1];
		if (marker === 0xff) {
			i++;
			continue;
		}
		const len = (d[i + 2] << 8) | d[i + 3];
		// SOF0..SOF15 except DHT (C4), JPG (C8), DAC (CC) carry the frame size.
		if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
			return { height: (d[i + 5] << 8) | d[i + 6], width: (d[i + 7] << 8) | d[i + 8] };
		}
		i += 2 + len;
	}
	return undefined;
}

function webpSize(d: Uint8Array): ImageSize | undefined {
	const chunk = String.fromCharCode(...d.subarray(12, 16));
	if (chunk === "VP8 " && d.length >= 30) {
		return { width: ((d[27] << 8) | d[26]) & 0x3fff, height: ((d[29] << 8) | d[28]) & 0x3fff };
	}
	if (chunk === "VP8L" && d.length >= 25) {
		const b = d[21] | (d[22] << 8) | (d[23] << 16) | (d[24] << 24);
		return { width: (b & 0x3fff) + 1, height: ((b >>> 14) & 0x3fff) + 1 };
	}
	if (chunk === "VP8X" && d.length >= 30) {
		return {
			width: 1 + (d[24] | (d[25] << 8) | (d[26] << 16)),
			height: 1 + (d[27] | (d[28] << 8) | (d[29] << 16)),
		};
	}
	return undefined;
}

export function imageSize(data: Uint8Array, mime: ImageMime): ImageSize | undefined {
	const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
	switch (mime) {
		case "image/png":
			return data.length >= 24 ? { width: dv.getUint32(16), height: dv.getUint32(20) } : undefined;
		case "image/gif":
			return data.length >= 10 ? { width: dv.getUint16(6, true), height: dv.getUint16(8, true) } : undefined;
		case "image/jpeg":
			return jpegSize(data);
		case "image/webp":
			return webpSize(data);
	}
}

export interface PreparedImage {
	data: Uint8Array;
	mimeType: string;
	original?: ImageSize;
	/** Set when the image was downscaled. */
	resized?: ImageSize;
	/** Set when downscaling was needed but failed. */
	resizeError?: string;
}

/** Downscale to fit MAX_IMAGE_DIMENSION (aspect kept) when the image is too large to send as is. */
export async function prepareImage(data: Uint8Array, mime: ImageMime, autoResize = true): Promise<PreparedImage> {
	const original = imageSize(data, mime);
	const tooBig =
		data.length > MAX_IMAGE_BYTES ||
		(original !== undefined && (original.width > MAX_IMAGE_DIMENSION || original.height > MAX_IMAGE_DIMENSION));
	if (!autoResize || !tooBig) return { data, mimeType: mime, original };
	try {
		const photon = await import("@silvia-odwyer/photon-node");
		const img = photon.PhotonImage.new_from_byteslice(data);
		try {
			const w = img.get_width();
			const h = img.get_height();
			const scale = Math.min(1, MAX_IMAGE_DIMENSION / w, MAX_IMAGE_DIMENSION / h);
			const target = { width: Math.max(1, Math.round(w * scale)), height: Math.max(1, Math.round(h * scale)) };
			const resized = scale < 1 ? photon.resize(img, target.width, target.height, photon.SamplingFilter.Lanczos3) : img;
			try {
				// PNG keeps sharp text (screenshots); fall back to JPEG when PNG is still too large.
				let out = resized.get_bytes();
				let outMime = "image/png";
				if (out.length > MAX_IMAGE_BYTES) {
					out = resized.get_bytes_jpeg(85);
					outMime = "image/jpeg";
				}
				return { data: out, mimeType: outMime, original: { width: w, height: h }, resized: target };
			} finally {
				if (resized !== img) resized.free();
			}
		} finally {
			img.free();
		}
	} catch (error) {
		return { data, mimeType: mime, original, resizeError: error instanceof Error ? error.message : String(error) };
	}
}
