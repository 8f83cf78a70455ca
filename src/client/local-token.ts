/** The typed lookups' token when the client has none and no registry counts tokens: any token answers locally. */
export const LOCAL_TOKEN = 'local';
