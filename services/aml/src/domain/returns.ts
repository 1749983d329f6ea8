/** The audit detail of the MLRO's return of a file: the reason follows this prefix (read back as AmlFile.returned). */
export const RETURN_DETAIL_PREFIX = (version: number) => `Returned version ${version} for changes. Reason: `;
