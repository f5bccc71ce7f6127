/** The keys of the channels the simulator seeds; the fake upstreams accept only these. */
export const SIMULATOR_API_KEY = 'simulator-key';
export const SIMULATOR_ACCESS_KEY = 'SIMULATORACCESSKEY';
export const SIMULATOR_SECRET_KEY = 'simulator-secret-key';
