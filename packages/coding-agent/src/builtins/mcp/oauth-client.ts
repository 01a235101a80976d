// How pi identifies itself to an MCP server's authorization server at
// sign-in: a pre-registered client (`oauth.clientId`), pi's Client ID
// Metadata Document (an HTTPS URL used as the client ID; the authorization
// server fetches it), or dynamic client registration. The official SDK's
// auth flow does the document step itself (`OAuthClientProvider.clientMetadataUrl`,
// used when the server's metadata says `client_id_metadata_document_supported`);
// this module decides whether to offer a document, which one, and the
// redirect path that goes with it.
import { createHash } from "node:crypto";
import { isClientMetadataDocumentCallback } from "../../extensions/types.js";

/** The `oauth` keys of an mcp.json entry the choice reads (config.ts's OAuthSettings). */
export interface ClientIdentitySettings {
	clientId?: string;
	clientName?: string;
	callbackUrl?: string;
	clientRegistration?: "auto" | "dcr" | "cimd";
}

/** Where pi's documents live: `<base>/client.json` and `<base>/<callback id>/client.json`. */
export const DEFAULT_CLIENT_METADATA_BASE_URL = "https://pi.dev/oauth";

/** The documents' base URL; `PI_MCP_CLIENT_METADATA_BASE_URL` points at a self-hosted copy. */
export function clientMetadataBaseUrl(env: NodeJS.ProcessEnv = process.env): string {
	const configured = env.PI_MCP_CLIENT_METADATA_BASE_URL?.trim();
	return (configured || DEFAULT_CLIENT_METADATA_BASE_URL).replace(/\/+$/, "");
}

/** Whether pi's documents list the redirect URI of `callbackUrl`: `/callback` on localhost or 127.0.0.1, any port. */
export const documentListsCallback: (callbackUrl: string | undefined) => boolean = isClientMetadataDocumentCallback;

/**
 * Whether sign-in may identify with a document instead of registering:
 * `cimd` always, `dcr` never, `auto` unless a client ID or a client name is
 * configured or the callback is one the documents do not list.
 */
export function offersClientMetadataDocument(oauth: ClientIdentitySettings = {}): boolean {
	const registration = oauth.clientRegistration ?? "auto";
	if (registration !== "auto") return registration === "cimd";
	return !oauth.clientId && !oauth.clientName && documentListsCallback(oauth.callbackUrl);
}

/** 12 URL-safe characters naming an MCP server URL in server-specific document and callback paths. */
export function callbackId(serverUrl: string): string {
	const url = new URL(serverUrl);
	url.hash = "";
	return createHash("sha256").update(url.href).digest().subarray(0, 9).toString("base64url");
}

/** The parts of authorization-server metadata (RFC 8414) the choice reads. */
export interface DocumentSupport {
	client_id_metadata_document_supported?: boolean;
	token_endpoint_auth_methods_supported?: string[];
	authorization_response_iss_parameter_supported?: boolean;
}

export interface ChosenDocument {
	/** The client ID: the document's URL. */
	url: string;
	/** Appended to the callback path: `/<callback id>` for a server-specific document, else "". */
	callbackSuffix: string;
}

/**
 * The document to identify with, or undefined when the authorization server
 * does not accept documents from public clients. Without the `iss` parameter
 * in authorization responses (RFC 9207) the document and the redirect path
 * are specific to the MCP server, so a response cannot be taken for one from
 * another authorization server.
 */
export function chooseClientMetadataDocument(
	serverUrl: string,
	metadata: DocumentSupport | undefined,
	baseUrl: string,
): ChosenDocument | undefined {
	if (
		metadata?.client_id_metadata_document_supported !== true ||
		!metadata.token_endpoint_auth_methods_supported?.includes("none")
	) {
		return undefined;
	}
	if (metadata.authorization_response_iss_parameter_supported === true) {
		return { url: `${baseUrl}/client.json`, callbackSuffix: "" };
	}
	const id = callbackId(serverUrl);
	return { url: `${baseUrl}/${id}/client.json`, callbackSuffix: `/${id}` };
}

/**
 * The JSON a document URL serves (for hosting a copy under
 * `PI_MCP_CLIENT_METADATA_BASE_URL`): a public client whose loopback redirect
 * URIs an authorization server accepts on any port (RFC 8252).
 */
export function clientMetadataDocument(documentUrl: string, callbackPath = "/callback"): Record<string, unknown> {
	return {
		client_id: documentUrl,
		client_name: "pi",
		redirect_uris: [`http://127.0.0.1${callbackPath}`, `http://localhost${callbackPath}`],
		grant_types: ["authorization_code", "refresh_token"],
		response_types: ["code"],
		token_endpoint_auth_method: "none",
	};
}
