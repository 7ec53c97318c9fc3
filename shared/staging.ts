// The staging folder a replace writes new outputs into, inside the destination, before moving them
// into place. One left behind means an apply was interrupted (killed, power loss): inspect reports it.
export const STAGING_DIR_NAME = '.distributor-staging';
